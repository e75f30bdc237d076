with Greet;
procedure Main is
begin
   Greet.Run;
end Main;
