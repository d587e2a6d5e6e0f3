import MarqueeCore
import MarqueePlayer
import Testing

/// A new queue's settings (a reload, a control client's `load`) never change the run's own.
@Suite struct PlayerRunSettingTests {
    @Test func aNewQueueKeepsEveryRunSettingAndTakesTheRest() {
        var running = PlayerSettings()
        running.exitWhenIdle = true
        running.waitsForContent = true
        running.followsAudioClock = true
        running.retryDelay = MediaTime(seconds: 2)
        running.maximumRetryDelay = MediaTime(seconds: 9)
        running.stopTimeout = MediaTime(seconds: 7)
        running.readAhead = .seconds(3)
        var loaded = PlayerSettings()
        loaded.repeatMode = .one
        loaded.volume = 0.5

        let settings = loaded.keepingRunSettings(of: running)

        #expect(settings.exitWhenIdle && settings.waitsForContent && settings.followsAudioClock)
        #expect(settings.retryDelay == MediaTime(seconds: 2) && settings.maximumRetryDelay == MediaTime(seconds: 9))
        #expect(settings.stopTimeout == MediaTime(seconds: 7))
        #expect(settings.readAhead == .seconds(3))
        #expect(settings.repeatMode == .one && settings.volume == 0.5)
        #expect(PlayerRunSetting.all.map(\.name) == ["exitWhenIdle", "waitsForContent", "followsAudioClock", "retryDelay",
                                                      "maximumRetryDelay", "stopTimeout", "readAhead"])
    }
}
