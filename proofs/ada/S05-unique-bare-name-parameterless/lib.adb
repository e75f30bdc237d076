package body Lib is
   function Unit return Integer is
   begin
      return 1;
   end Unit;
end Lib;
