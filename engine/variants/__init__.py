"""The four games; importing this package registers them."""

from engine.variants import baghdad, kozel, three_guns, tyaga

__all__ = ["baghdad", "kozel", "three_guns", "tyaga"]
