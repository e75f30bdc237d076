with Lib; use Lib;
procedure Main is
begin
   Hello ("ada");
end Main;
