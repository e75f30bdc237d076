package Lib is
   function Twice (X : Integer) return Integer;
end Lib;
