with Ada.Text_IO;
with Lib;
procedure Main is
begin
   Ada.Text_IO.Put_Line (Integer'Image (Lib.Twice (21)));
end Main;
