import MarqueeCore

/// Display power on the present thread. Off: playback pauses (decoding stops, so the CPU rests, and
/// the sound is silent), then every switch turns its screen off: the KMS CRTC inactive with its
/// mode kept, the TV to standby. On: the switches first, then playback goes on where it was if it
/// was running. A switch that fails is one error line; the others still act.
extension QueuePlayer {
    func setDisplayPower(on: Bool) {
        guard on != displayIsOn else { return }
        if !on {
            resumeWhenDisplayOn = machine.wantsToPlay
            if resumeWhenDisplayOn { apply(.pause) }
        }
        for power in displayPowerSwitches {
            do {
                try power.setDisplayPower(on: on)
            } catch {
                emit(.error(message: "display: cannot turn \(on ? "on" : "off"): \(error)"))
            }
        }
        displayIsOn = on
        emit(.displayPowerChanged(on: on))
        if on {
            if resumeWhenDisplayOn { resume() }
            resumeWhenDisplayOn = false
        }
    }
}
