with Ada.Text_IO;
with Shapes.Square;
procedure Main is
begin
   Ada.Text_IO.Put_Line (Integer'Image (Shapes.Square.Perimeter (3)));
end Main;
