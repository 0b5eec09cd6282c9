#include "fx-units.h"
HoldsA g_a;
Box<char> g_bc;
int main() { return (int)sizeof(g_a) + g_bc.tag; }
