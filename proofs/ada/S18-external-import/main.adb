with Ada.Text_IO; use Ada.Text_IO;
procedure Main is
begin
   Put_Line ("outside");
   New_Line;
end Main;
