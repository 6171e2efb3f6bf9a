#ifndef CONDNET_PAPER_H
#define CONDNET_PAPER_H
#endif
