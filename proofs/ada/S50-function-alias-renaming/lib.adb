with Ada.Text_IO;
package body Lib is
   procedure Report (N : Integer) is
   begin
      Ada.Text_IO.Put_Line ("report" & Integer'Image (N));
   end Report;
end Lib;
