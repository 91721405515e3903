"""The devices around the table: camera sources and the seat panel (buttons, LEDs, buzzer)."""
