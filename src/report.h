#ifndef CONDNET_REPORT_H
#define CONDNET_REPORT_H
#endif
