package Shapes is
   function Sides return Integer;
end Shapes;
