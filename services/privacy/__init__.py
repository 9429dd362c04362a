"""What a person may take or erase: the data export and account deletion across every domain."""
