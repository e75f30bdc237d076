generic
   Start : Integer;
package Counters is
   procedure Bump;
   function Value return Integer;
end Counters;
