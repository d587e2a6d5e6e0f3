import Foundation

extension NSCondition {
    /// Waits until signalled or, when there is one, until `deadline`; false once the deadline has
    /// passed. No deadline is a plain wait: corelibs Foundation traps converting
    /// `Date.distantFuture` to a timespec (it overflows 64-bit nanoseconds).
    func wait(orUntil deadline: Date?) -> Bool {
        guard let deadline else {
            wait()
            return true
        }
        return wait(until: deadline)
    }
}
