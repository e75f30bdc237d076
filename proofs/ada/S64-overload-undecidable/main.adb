with Lib;
procedure Main is
   Flag : constant Boolean := True;
begin
   Lib.Show (Flag);
end Main;
