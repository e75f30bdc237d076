generic
   type T is range <>;
function Twice (X : T) return T;
