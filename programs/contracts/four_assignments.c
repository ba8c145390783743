/* The seed's four-assignment example (seed 002, section 2.1) with a
   postcondition one value off: it says `z == 3`, but the last assignment
   makes z 4. The failed VC blames the assignment responsible, line 12. */
int x, y, z;

/*@ ensures x == 1 && y == 2 && z == 3;
    assigns x, y, z; */
int main(void) {
  x = 1;
  y = 2;
  z = 3;
  z = 4;
  return 0;
}
