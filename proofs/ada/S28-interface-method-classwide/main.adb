with Shapes; use Shapes;
procedure Main is
   Q : constant Square := (Side => 3);
begin
   Report (Q);
end Main;
