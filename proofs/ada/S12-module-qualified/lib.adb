package body Lib is
   function Twice (X : Integer) return Integer is
   begin
      return X * 2;
   end Twice;
end Lib;
