package Lib is
   procedure Step;
   procedure Apply (Step : access procedure);
end Lib;
