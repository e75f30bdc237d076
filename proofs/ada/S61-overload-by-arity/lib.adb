with Ada.Text_IO;
package body Lib is
   procedure Show (A : Integer) is
   begin
      Ada.Text_IO.Put_Line ("one" & Integer'Image (A));
   end Show;

   procedure Show (A : Integer; B : Integer) is
   begin
      Ada.Text_IO.Put_Line ("two" & Integer'Image (A + B));
   end Show;
end Lib;
