package Lib is
   procedure Report (N : Integer);
end Lib;
