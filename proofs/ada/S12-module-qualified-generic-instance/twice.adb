function Twice (X : T) return T is
begin
   return X + X;
end Twice;
