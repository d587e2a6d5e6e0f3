import Foundation
import Testing

/// A launcher may start marquee with SIGTERM blocked (a test runner's thread does; some supervisors
/// do). A SIGTERM sent while it starts up is then pending when marquee installs its handlers, and
/// ignoring the signal there would discard it: marquee must act on it and exit.
@Suite struct EarlySignalTests {
    @Test func aSIGTERMPendingFromBeforeTheHandlersStillEndsThePlayer() throws {
        let folder = try PlayCommandTests.workspace.get()
        let process = Process()
        process.executableURL = try MarqueeProcess.executable()
        process.arguments = ["play", "a.mp4", "--output", "headless:160x90", "--audio", "null", "--repeat", "all",
                             "--control", "none", "--input", "none"]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // The child inherits the spawning thread's mask: SIGTERM blocked, as such a launcher leaves it.
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
        // At once: marquee is still loading its libraries and reading its arguments.
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let stillRunning = process.isRunning
        if stillRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(!stillRunning, "marquee ignored a SIGTERM sent while it started")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
