with Ada.Text_IO;
package body Greet is
   procedure Hello is
   begin
      Ada.Text_IO.Put_Line ("hello");
   end Hello;

   procedure Run is
   begin
      Hello;
   end Run;
end Greet;
