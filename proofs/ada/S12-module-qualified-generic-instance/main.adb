with Ada.Text_IO;
with Counters;
with Twice;
procedure Main is
   package Ten is new Counters (10);
   function Double is new Twice (Integer);
begin
   Ten.Bump;
   Ada.Text_IO.Put_Line (Integer'Image (Double (Ten.Value)));
end Main;
