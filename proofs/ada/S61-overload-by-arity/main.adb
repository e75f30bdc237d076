with Lib; use Lib;
procedure Main is
begin
   Show (1);
   Show (1, B => 2);
end Main;
