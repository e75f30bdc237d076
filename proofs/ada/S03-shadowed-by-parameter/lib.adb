with Ada.Text_IO;
package body Lib is
   procedure Step is
   begin
      Ada.Text_IO.Put_Line ("step");
   end Step;

   procedure Apply (Step : access procedure) is
   begin
      Step.all;
   end Apply;
end Lib;
