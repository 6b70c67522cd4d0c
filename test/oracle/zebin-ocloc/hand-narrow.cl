// By-value arguments narrower than 4 bytes: IGC gives each a 4-byte payload slot (arg_byvalue size 4), as it does
// the uchar kernarg passes for a tinytc bool parameter (test/zebin.test.ts compares the two).
kernel void narrow(global int *g, uchar u, char c, uchar flag, char2 c2, short s) { g[0] = u + c + flag + c2.y + s; }
kernel void flag_first(uchar flag, global float *x) { if (flag) x[0] = 1.0f; }
