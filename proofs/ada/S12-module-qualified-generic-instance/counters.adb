package body Counters is
   Current : Integer := Start;
   procedure Bump is
   begin
      Current := Current + 1;
   end Bump;
   function Value return Integer is (Current);
end Counters;
