package Greet is
   procedure Hello;
   procedure Run;
end Greet;
