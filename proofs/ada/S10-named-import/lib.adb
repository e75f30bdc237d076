with Ada.Text_IO; use Ada.Text_IO;
package body Lib is
   procedure Hello (Name : String) is
   begin
      Put_Line ("hello " & Name);
   end Hello;
end Lib;
