package Lib is
   procedure Show (X : Integer);
   procedure Show (X : Boolean);
end Lib;
