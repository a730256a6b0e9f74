/* What a debugger does with a RingBuffer stream port at the end of a run:
 * save the recorder's buffer (RecorderDataPtr, from its start markers to its
 * end markers) to a file, as `dump binary memory ringbuffer.bin
 * RecorderDataPtr RecorderDataPtr+1` does in gdb. Runs when the workload
 * exits. Written for corera's samples. */
#include <stdio.h>
#include <trcRecorder.h>

extern void* RecorderDataPtr;

__attribute__((destructor)) static void dump_ring_buffer(void)
{
    FILE* f = fopen("ringbuffer.bin", "wb");
    if (f == NULL || RecorderDataPtr == NULL) {
        return;
    }
    fwrite(RecorderDataPtr, sizeof(TraceRingBuffer_t), 1, f);
    fclose(f);
}
