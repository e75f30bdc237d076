package Shapes.Square is
   function Perimeter (Side : Integer) return Integer;
end Shapes.Square;
