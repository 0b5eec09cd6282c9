#include "fx-units.h"
Keyed::~Keyed() {}
struct Same { long l; int i; };
HoldsB g_b;
Box<long> g_bl;
Same g_same;
OnKeyed g_ok;
