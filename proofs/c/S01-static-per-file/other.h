int other_value(int v);
