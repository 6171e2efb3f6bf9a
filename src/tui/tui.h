#ifndef CONDNET_TUI_TUI_H
#define CONDNET_TUI_TUI_H
#endif
