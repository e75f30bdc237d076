package Lib is
   function Unit return Integer;
end Lib;
