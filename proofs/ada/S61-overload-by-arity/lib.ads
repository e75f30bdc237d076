package Lib is
   procedure Show (A : Integer);
   procedure Show (A : Integer; B : Integer);
end Lib;
