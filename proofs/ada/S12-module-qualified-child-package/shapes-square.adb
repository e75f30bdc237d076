package body Shapes.Square is
   function Perimeter (Side : Integer) return Integer is
   begin
      return Side * Sides;
   end Perimeter;
end Shapes.Square;
