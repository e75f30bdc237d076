with Lib;
procedure Main is
   procedure Say (N : Integer) renames Lib.Report;
begin
   Say (5);
end Main;
