package body Shapes is
   function Sides return Integer is (4);
end Shapes;
