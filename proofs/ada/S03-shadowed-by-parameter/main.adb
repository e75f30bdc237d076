with Lib;
procedure Main is
begin
   Lib.Apply (Lib.Step'Access);
end Main;
