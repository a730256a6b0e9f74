//! What the replay refuses: settings it cannot keep and chains it cannot
//! resolve. Both are the user's input at fault.

/// A replay set-up that cannot be kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// `time_slicing = true` with no tick: neither the recording nor the
    /// platform file's `tick_us` gives one.
    #[error("time_slicing = true needs a tick: the recording shows none; give tick_us in the platform file")]
    SlicingWithoutTick,
    /// The platform file gives a length to a queue the recording does not
    /// have.
    #[error("the platform file's [queues] names `{name}`; the recording's queues are: {known}")]
    UnknownQueue {
        /// The name it gave.
        name: String,
        /// The queues the recording has.
        known: String,
    },
    /// A queue length shorter than the recording shows the queue holding.
    #[error(
        "queue `{name}` held {peak} items at once in the recording; the platform file gives it a length of {length}"
    )]
    QueueTooShort {
        /// The queue.
        name: String,
        /// The length given.
        length: u32,
        /// The most items it held.
        peak: u32,
    },
    /// A chain names a task the trace does not have.
    #[error("chain `{chain}`: there is no task `{task}` in the trace; `corera graph TRACE` lists the task names")]
    UnknownChainTask {
        /// The chain.
        chain: String,
        /// The name it gave.
        task: String,
    },
}
