/* Stands in for SystemView's header in ../../systemview/printer/main.c: the harness records in CTF instead. */
typedef unsigned int U32;
#define SEGGER_SYSVIEW_NameResource(id, name) ((void)(id), (void)(name))
