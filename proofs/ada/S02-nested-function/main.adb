with Ada.Text_IO;
procedure Main is
   procedure Inner (N : Integer) is
   begin
      Ada.Text_IO.Put_Line (Integer'Image (N));
   end Inner;
begin
   Inner (7);
end Main;
