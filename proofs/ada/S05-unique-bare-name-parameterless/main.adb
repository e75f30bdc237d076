with Ada.Text_IO;
with Lib; use Lib;
procedure Main is
   N : constant Integer := Unit;
begin
   Ada.Text_IO.Put_Line (Integer'Image (N + Unit));
end Main;
