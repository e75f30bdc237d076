package Shapes is
   type Shape is abstract tagged null record;
   function Area (S : Shape) return Integer is abstract;
   type Square is new Shape with record
      Side : Integer;
   end record;
   overriding function Area (S : Square) return Integer;
   procedure Report (S : Shape'Class);
end Shapes;
