with Ada.Text_IO;
package body Shapes is
   overriding function Area (S : Square) return Integer is
   begin
      return S.Side * S.Side;
   end Area;

   procedure Report (S : Shape'Class) is
   begin
      Ada.Text_IO.Put_Line (Integer'Image (Area (S)));
   end Report;
end Shapes;
