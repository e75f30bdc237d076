with Ada.Text_IO;
package body Lib is
   procedure Show (X : Integer) is
   begin
      Ada.Text_IO.Put_Line ("int" & Integer'Image (X));
   end Show;

   procedure Show (X : Boolean) is
   begin
      Ada.Text_IO.Put_Line ("bool " & Boolean'Image (X));
   end Show;
end Lib;
