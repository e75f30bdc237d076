package Lib is
   procedure Hello (Name : String);
end Lib;
