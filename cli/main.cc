#include "commands.h"

int main(int argc, char** argv) { return mote::run_cli(argc, argv); }
